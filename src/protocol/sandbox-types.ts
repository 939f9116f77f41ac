// The parts of the `sandbox` settings block, with the official Agent SDK's names (0.3.333). The CLI reads
// them; Warden passes the block through as written (merged into `--settings` as the official SDK merges
// it). Types only. Optional members also take `undefined`, as the official declarations do, so a value typed
// with them is one of these under `exactOptionalPropertyTypes`.

export type SandboxNetworkConfig = {
  allowedDomains?: string[] | undefined;
  deniedDomains?: string[] | undefined;
  /** Only `allowedDomains` are reachable; nothing is asked. */
  strictAllowlist?: boolean | undefined;
  allowManagedDomainsOnly?: boolean | undefined;
  allowUnixSockets?: string[] | undefined;
  allowAllUnixSockets?: boolean | undefined;
  allowLocalBinding?: boolean | undefined;
  /** macOS only. */
  allowMachLookup?: string[] | undefined;
  httpProxyPort?: number | undefined;
  socksProxyPort?: number | undefined;
  tlsTerminate?: { caCertPath?: string | undefined; caKeyPath?: string | undefined } | undefined;
};

export type SandboxFilesystemConfig = {
  allowWrite?: string[] | undefined;
  denyWrite?: string[] | undefined;
  denyRead?: string[] | undefined;
  allowRead?: string[] | undefined;
  allowManagedReadPathsOnly?: boolean | undefined;
  disabled?: boolean | undefined;
};

/** How a secret is kept from sandboxed commands: hidden entirely, or replaced by a mask the proxy swaps back. */
type CredentialRule = {
  mode: 'deny' | 'mask';
  /** A pattern that picks the secret out of the value. */
  extract?: string | undefined;
  onExtractNoMatch?: 'deny' | 'error' | 'warn' | undefined;
  decode?: 'jwt' | undefined;
  maskClaims?: string[] | undefined;
  /** Hosts the real value may be injected for. */
  injectHosts?: string[] | undefined;
};

export type SandboxCredentialsConfig = {
  files?: (CredentialRule & { path: string; maskDuplicates?: boolean | undefined })[] | undefined;
  envVars?: (CredentialRule & { name: string })[] | undefined;
  allowPlaintextInject?: boolean | undefined;
  awsPairs?:
    | { accessKeyIdVar: string; secretAccessKeyVar: string; sessionTokenVar?: string | undefined }[]
    | undefined;
  sigv4?:
    | {
        streaming?: 'deny' | 'passthrough' | undefined;
        presigned?: 'deny' | 'passthrough' | undefined;
        sigv4a?: 'deny' | 'passthrough' | undefined;
      }
    | undefined;
};

/** Violations not reported, by command pattern → paths or hosts. */
export type SandboxIgnoreViolations = Record<string, string[]>;
