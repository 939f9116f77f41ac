// The two SDKs the twin suite runs every scenario on. Scenarios are written against the official SDK's
// API and types; Warden's module stands in for it unchanged (test/types proves the types line up, so
// the cast here only spares repeating that proof at run time).
import * as official from '@anthropic-ai/claude-agent-sdk';

import * as warden from '../../../src/index.js';

export type AgentSdk = typeof official;
export type SdkName = 'official' | 'warden';

export const SDKS: readonly { name: SdkName; sdk: AgentSdk }[] = [
  { name: 'official', sdk: official },
  { name: 'warden', sdk: warden as unknown as AgentSdk },
];

export const OFFICIAL = official;
export const WARDEN = warden as unknown as AgentSdk;
