// The result of resolving settings across their sources, with the official SDK's types, and the trust
// filter the CLI applies to an escalating default permission mode before it honours it.
import type { Settings } from './settings-types.js';

export type ResolvedSettingSource = 'user' | 'project' | 'local' | 'managed' | 'flag';

/** How a managed (policy) source reached this machine. */
export type PolicySettingsOrigin = 'helper' | 'remote' | 'plist' | 'hklm' | 'file' | 'parent' | 'hkcu';

export type ProvenanceEntry = {
  source: ResolvedSettingSource;
  path?: string;
  policyOrigin?: PolicySettingsOrigin;
};

export type ResolvedSettings = {
  /** The merged settings, every enabled source applied in precedence order. */
  effective: Settings;
  /** Which source supplied each top-level key of `effective`. */
  provenance: Partial<Record<keyof Settings, ProvenanceEntry>>;
  /** Each source's own settings, lowest precedence first. */
  sources: Array<{
    source: ResolvedSettingSource;
    settings: Settings;
    path?: string;
    policyOrigin?: PolicySettingsOrigin;
  }>;
  /** Which OS-level policy stores could not be read (`false`: all could). */
  machinePolicy?: {
    didNotLoad: false | Array<'profile' | 'registry' | 'file'>;
    registryPolicyDifferedFromFingerprint?: true;
  };
};

/** Modes that grant more than the default; a checked-in file must not switch them on for whoever clones. */
const ESCALATING = new Set(['bypassPermissions', 'auto', 'acceptEdits']);
/** Sources that may not set the two widest modes: anything that travels with the repository or the folder. */
const UNTRUSTED_FOR_WIDEST = new Set<ResolvedSettingSource>(['project', 'local']);
/** acceptEdits may come from a local file (not committed), but not from the committed project file. */
const UNTRUSTED_FOR_EDITS = new Set<ResolvedSettingSource>(['project']);

/**
 * `effective` without `permissions.defaultMode` when that mode escalates and the source that set it
 * (the highest-precedence source naming one) is not trusted to: the CLI ignores such a mode the same way.
 * Otherwise `effective` unchanged.
 */
export function filterEscalatingDefaultMode(resolved: ResolvedSettings): Settings {
  const mode = resolved.effective.permissions?.defaultMode;
  if (mode === undefined || !ESCALATING.has(mode)) return resolved.effective;
  for (let index = resolved.sources.length - 1; index >= 0; index--) {
    const source = resolved.sources[index];
    if (source?.settings.permissions?.defaultMode === undefined) continue;
    const untrusted = mode === 'acceptEdits' ? UNTRUSTED_FOR_EDITS : UNTRUSTED_FOR_WIDEST;
    if (!untrusted.has(source.source)) return resolved.effective;
    const { defaultMode: _dropped, ...permissions } = resolved.effective.permissions ?? {};
    return { ...resolved.effective, permissions };
  }
  return resolved.effective;
}
