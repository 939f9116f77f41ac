// Growth over time: a least-squares line through (t, value) samples, its slope per hour.
export interface Fit {
  /** Units per hour. */
  readonly perHour: number;
  readonly samples: number;
  readonly first: number;
  readonly last: number;
}

export function fitPerHour(points: readonly { t: number; value: number }[]): Fit {
  const n = points.length;
  const first = points[0]?.value ?? 0;
  const last = points.at(-1)?.value ?? 0;
  if (n < 2) return { perHour: 0, samples: n, first, last };
  const meanT = points.reduce((s, p) => s + p.t, 0) / n;
  const meanV = points.reduce((s, p) => s + p.value, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - meanT) * (p.value - meanV);
    den += (p.t - meanT) ** 2;
  }
  const perMs = den === 0 ? 0 : num / den;
  return { perHour: Math.round(perMs * 3_600_000 * 100) / 100, samples: n, first, last };
}

/**
 * The lowest point of each window of `size` consecutive samples (placed at the window's middle time). For a
 * count of what is in flight at the sampling instant (descriptors, handles), a leak raises the floor
 * while the load only scatters the points above it.
 */
export function windowFloors(
  points: readonly { t: number; value: number }[],
  size: number,
): { t: number; value: number }[] {
  const floors: { t: number; value: number }[] = [];
  for (let at = 0; at + size <= points.length; at += size) {
    const window = points.slice(at, at + size);
    floors.push({
      t: (window[0]!.t + window.at(-1)!.t) / 2,
      value: Math.min(...window.map((p) => p.value)),
    });
  }
  return floors;
}
