// The parts of the `sandbox` settings block, with the official Agent SDK's names (0.3.332). The CLI reads
// them; Warden passes the block through as written (merged into `--settings` as the official SDK merges
// it). Types only.

export type SandboxNetworkConfig = {
  allowedDomains?: string[];
  deniedDomains?: string[];
  /** Only `allowedDomains` are reachable; nothing is asked. */
  strictAllowlist?: boolean;
  allowManagedDomainsOnly?: boolean;
  allowUnixSockets?: string[];
  allowAllUnixSockets?: boolean;
  allowLocalBinding?: boolean;
  /** macOS only. */
  allowMachLookup?: string[];
  httpProxyPort?: number;
  socksProxyPort?: number;
  tlsTerminate?: { caCertPath?: string; caKeyPath?: string };
};

export type SandboxFilesystemConfig = {
  allowWrite?: string[];
  denyWrite?: string[];
  denyRead?: string[];
  allowRead?: string[];
  allowManagedReadPathsOnly?: boolean;
  disabled?: boolean;
};

/** How a secret is kept from sandboxed commands: hidden entirely, or replaced by a mask the proxy swaps back. */
type CredentialRule = {
  mode: 'deny' | 'mask';
  /** A pattern that picks the secret out of the value. */
  extract?: string;
  onExtractNoMatch?: 'deny' | 'error' | 'warn';
  decode?: 'jwt';
  maskClaims?: string[];
  /** Hosts the real value may be injected for. */
  injectHosts?: string[];
};

export type SandboxCredentialsConfig = {
  files?: (CredentialRule & { path: string; maskDuplicates?: boolean })[];
  envVars?: (CredentialRule & { name: string })[];
  allowPlaintextInject?: boolean;
  awsPairs?: { accessKeyIdVar: string; secretAccessKeyVar: string; sessionTokenVar?: string }[];
  sigv4?: {
    streaming?: 'deny' | 'passthrough';
    presigned?: 'deny' | 'passthrough';
    sigv4a?: 'deny' | 'passthrough';
  };
};

/** Violations not reported, by command pattern → paths or hosts. */
export type SandboxIgnoreViolations = Record<string, string[]>;
