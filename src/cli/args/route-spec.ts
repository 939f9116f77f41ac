// `warden serve --route SPEC`: a route (supervisor/approvals/routes.ts) on one line, parts split by `;`,
// each `key=value`: `name=ops;remind=5m;escalate=10m;to=bob,ops;project=/srv/app;risk=network`. `to`,
// `project`, `tool` and `risk` take lists split by `,`; `rule` is one rule and may be given again.
import { validateRoutes, type ApprovalRoute, type ApprovalScope } from '../../supervisor/index.js';
import { parseDuration } from '../duration.js';
import { UsageError } from './usage-error.js';

const SCOPE_KEYS: Record<string, keyof ApprovalScope> = {
  project: 'projects',
  tool: 'tools',
  rule: 'rules',
  risk: 'risks',
};

export function parseRouteSpec(spec: string): ApprovalRoute {
  const route: Record<string, unknown> = {};
  const match: Record<string, string[]> = {};
  for (const part of spec.split(';')) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    if (equals < 1) throw new UsageError(`--route: '${part}' is not key=value`);
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === 'name') route.name = value;
    else if (key === 'to') route.to = list(value);
    else if (key === 'remind' || key === 'escalate') route[`${key}AfterMs`] = duration(key, value);
    else if (key in SCOPE_KEYS) {
      const kind = SCOPE_KEYS[key] ?? 'rules';
      match[kind] = [...(match[kind] ?? []), ...(key === 'rule' ? [value] : list(value))];
    } else
      throw new UsageError(
        `--route: unknown key '${key}' (name, remind, escalate, to, project, tool, rule, risk)`,
      );
  }
  if (Object.keys(match).length > 0) route.match = match;
  try {
    const [checked] = validateRoutes([route], 'route');
    if (checked === undefined) throw new UsageError('--route: empty');
    return checked;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--${(error as Error).message.replace(/^options\.route\[0\]\.?/, 'route ')}`);
  }
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function duration(key: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms === 0)
    throw new UsageError(`--route: ${key} must be a duration such as 30s, 10m or 2h, got '${value}'`);
  return ms;
}
