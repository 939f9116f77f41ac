// Ids for the control requests the host sends. The official SDK uses up to 13 base-36 characters
// (`Math.random().toString(36).substring(2, 15)`); these keep that shape. A random prefix keeps ids of
// different channels (and of earlier processes of a resumed session) apart; the counter after it makes
// every id of one channel unique by construction, not by luck.
import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const PREFIX_LENGTH = 6;

export function createRequestIdGenerator(): () => string {
  let prefix = '';
  for (let i = 0; i < PREFIX_LENGTH; i++) prefix += ALPHABET[randomInt(ALPHABET.length)];
  let counter = 0;
  return () => {
    counter += 1;
    return `${prefix}${counter.toString(36)}`;
  };
}
