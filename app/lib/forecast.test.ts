import { describe, expect, it } from "vitest";
import { linearTrend, projectTrend } from "./forecast";

describe("linearTrend", () => {
  it("finds the line through figures that grow evenly", () => {
    expect(linearTrend([10, 20, 30, 40])).toEqual({ slope: 10, intercept: 10 });
  });

  it("finds the closest line through scattered figures", () => {
    // x 0..3, y 1, 3, 2, 6: slope Σ(x−1.5)(y−3) / Σ(x−1.5)² = 7 / 5 = 1.4, intercept 3 − 1.4 × 1.5 = 0.9.
    const trend = linearTrend([1, 3, 2, 6])!;
    expect(trend.slope).toBeCloseTo(1.4);
    expect(trend.intercept).toBeCloseTo(0.9);
  });

  it("needs two figures", () => {
    expect(linearTrend([])).toBeNull();
    expect(linearTrend([5])).toBeNull();
  });
});

describe("projectTrend", () => {
  it("carries the line forward, rounded", () => {
    // 6.75, 8.25, 9.75
    expect(projectTrend({ slope: 1.5, intercept: 0.75 }, 4, 3)).toEqual([7, 8, 10]);
  });

  it("never goes below zero", () => {
    expect(projectTrend({ slope: -10, intercept: 25 }, 2, 3)).toEqual([5, 0, 0]);
  });
});
