/**
 * A projection from past figures: the straight line closest to them (least squares), carried
 * forward. Not a forecast model, and labelled as such on screen: it says where the trend of the
 * last months leads if nothing changes. Browser-safe.
 */

export interface LinearTrend {
  /** Change per step (per month for monthly figures). */
  slope: number;
  /** The line's value at the first figure. */
  intercept: number;
}

/** The least-squares line through `values` taken at steps 0, 1, 2…; null with fewer than two figures. */
export function linearTrend(values: readonly number[]): LinearTrend | null {
  const n = values.length;
  if (n < 2) return null;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY);
    variance += (x - meanX) ** 2;
  });
  const slope = covariance / variance;
  return { slope, intercept: meanY - slope * meanX };
}

/**
 * The line's values at steps `from`, `from + 1`… (`count` of them), rounded, never below zero (a
 * falling trend stops at nothing, it does not go negative).
 */
export function projectTrend(trend: LinearTrend, from: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => Math.max(0, Math.round(trend.intercept + trend.slope * (from + index))));
}
