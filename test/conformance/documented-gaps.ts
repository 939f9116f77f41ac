// What docs/compatibility.md says Warden deliberately does not provide. The tables whose first header cell
// is `option`, `method` or `export` are read; a row whose status cell is exactly `no` and whose notes cell
// gives a reason lists each backticked name of its first cell as not provided. In an `export` table a name
// starting with `./` stands for a whole subpath (every export of it).
import { readFileSync } from 'node:fs';

export type Kind = 'option' | 'method' | 'export';

export interface Gap {
  readonly kind: Kind;
  readonly name: string;
  readonly reason: string;
}

const KINDS: readonly Kind[] = ['option', 'method', 'export'];
/** The leading identifier of a backticked span (`setModel(model?)` → setModel) or a subpath (`./core`). */
const NAME = /`(\.\/[\w./-]+|[A-Za-z_$][\w$]*)[^`]*`/g;

export function documentedGaps(markdownPath: string): Gap[] {
  const gaps: Gap[] = [];
  let inTable = false;
  let kind: Kind | undefined;
  for (const line of readFileSync(markdownPath, 'utf8').split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (!inTable) {
      // The header row names the table's kind; other tables are not read.
      inTable = true;
      kind = KINDS.find((k) => k === cells[0]);
      continue;
    }
    const [names = '', status = '', reason = ''] = cells;
    if (kind === undefined || status !== 'no' || reason === '') continue;
    for (const match of names.matchAll(NAME)) gaps.push({ kind, name: match[1]!, reason });
  }
  return gaps;
}
