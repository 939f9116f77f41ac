// Answers of pure functions kept by their input: a rule's glob compiles to the same RegExp every time, a
// manifest glob to the same matcher. The live gate and a simulation over a long history ask the same few
// globs again and again; each is worked out once. Bounded: dropped whole when full, so a stream of
// distinct inputs costs no more memory than the bound.

/** `fn` with its answers kept by key, at most `kept` of them. */
export function rememberedBy<K, V>(fn: (key: K) => V, kept = 4096): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as V;
    const value = fn(key);
    if (known.size >= kept) known.clear();
    known.set(key, value);
    return value;
  };
}
