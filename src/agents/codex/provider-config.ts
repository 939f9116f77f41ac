// The `-c` overrides that point Codex at a model provider of our choosing (the mock Responses API in
// tests, any compatible endpoint otherwise) instead of OpenAI's: Codex reads the key from the variable
// `env_key` names, and speaks the Responses wire API to `base_url`.

export interface CodexProvider {
  /** e.g. `http://127.0.0.1:PORT/v1`; Codex POSTs `${baseUrl}/responses`. */
  readonly baseUrl: string;
  /** The model slug. Its entry in Codex's catalogue decides the tools it gets (see docs/agents.md). */
  readonly model?: string;
  /** The variable the API key is read from; OPENAI_API_KEY by default. */
  readonly envKey?: string;
  /** The provider's id in the config; `warden` by default. */
  readonly id?: string;
}

/** The model Warden's tests name: in Codex 0.171.0 it gets exec_command and apply_patch as tools. */
export const CODEX_TEST_MODEL = 'gpt-5.5';

const toml = (value: string): string => JSON.stringify(value);

function providerId(provider: CodexProvider): string {
  const id = provider.id ?? 'warden';
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new TypeError('provider.id must be a bare TOML key');
  return id;
}

function providerTable(provider: CodexProvider): string {
  return `{name=${toml(providerId(provider))},base_url=${toml(provider.baseUrl)},env_key=${toml(provider.envKey ?? 'OPENAI_API_KEY')},wire_api="responses"}`;
}

/**
 * The same provider as lines of a `config.toml` (top-level keys: they go before any table), for an
 * app-server that is started without `-c` overrides — by `warden serve`, say, which reads CODEX_HOME.
 */
export function codexProviderToml(provider: CodexProvider): string {
  const id = providerId(provider);
  return [
    `model_provider = ${toml(id)}`,
    ...(provider.model === undefined ? [] : [`model = ${toml(provider.model)}`]),
    `model_providers.${id} = ${providerTable(provider)}`,
    '',
  ].join('\n');
}

export function codexProviderConfig(provider: CodexProvider): string[] {
  const id = providerId(provider);
  const table = providerTable(provider);
  return [
    `model_provider=${toml(id)}`,
    `model_providers.${id}=${table}`,
    ...(provider.model === undefined ? [] : [`model=${toml(provider.model)}`]),
  ];
}
