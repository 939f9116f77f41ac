// What an allow batch leaves out, as the API and the browser show it. A file of its own with no imports,
// so that the browser's type check can name it without pulling in the policy (which reads the disk).

/** A pending approval a batch allow leaves out, and why (a protected or CLI-sensitive write). */
export interface BatchLeftOut {
  id: string;
  toolName: string;
  reason: string;
}
