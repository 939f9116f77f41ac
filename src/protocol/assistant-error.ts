// Why the CLI could not get a model answer: on an assistant message (`error`), on an api_retry while it
// tries again, and in a StopFailure hook. A file of its own so the messages, the system messages and the
// hook types can all name it without importing each other.
export type SDKAssistantMessageError =
  | 'authentication_failed'
  | 'oauth_org_not_allowed'
  | 'account_on_hold'
  | 'verification_required'
  | 'billing_error'
  | 'rate_limit'
  | 'overloaded'
  | 'invalid_request'
  | 'model_not_found'
  | 'server_error'
  | 'unknown'
  | 'max_output_tokens'
  | 'cloud_credential_error';
