// Is a URL's host this machine or its private network? A push endpoint comes from an API caller and the
// server POSTs to it, so one naming a loopback, private, link-local or unspecified address would let a
// caller reach services that are not on the internet (a database on 127.0.0.1, a cloud metadata address).
// Judged on the host as the URL parser normalised it (`https://2130706433/` is 127.0.0.1). A DNS name that
// resolves to such an address is not caught here: the push services browsers use have public names.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const LOCAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv6');

/** True for `localhost` names and for IP literals of this machine or a private network. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(literal)) return LOCAL.check(literal, 'ipv4');
  if (!isIPv6(literal)) return false;
  // An IPv4 address mapped into IPv6 (::ffff:127.0.0.1, which the parser writes ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(literal);
  if (mapped !== null) {
    const high = Number.parseInt(mapped[1] ?? '0', 16);
    const low = Number.parseInt(mapped[2] ?? '0', 16);
    return LOCAL.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return LOCAL.check(literal, 'ipv6');
}
