"""Soft speed targets for benchmarks: figures are printed against their targets; only a large regression fails.

Timings depend on the machine and its load (a shared 2-core machine can be several times slower than an
idle one), so a figure a little over its target is reported, not failed. A figure worse than
`HARD_FACTOR` × its target fails the benchmark: that is a regression, not noise.
"""

from __future__ import annotations

from dataclasses import dataclass

HARD_FACTOR = 2.0


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    target: float
    unit: str = "s"
    higher_is_better: bool = False

    @property
    def ratio(self) -> float:
        """How far from the target, > 1 meaning worse (value/target, or target/value when higher is better)."""
        if self.higher_is_better:
            return self.target / self.value if self.value > 0 else float("inf")
        return self.value / self.target if self.target > 0 else float("inf")

    @property
    def verdict(self) -> str:
        if self.ratio <= 1.0:
            return "within target"
        if self.ratio <= HARD_FACTOR:
            return f"over target by {100 * (self.ratio - 1):.0f} % (soft: the machine may be loaded)"
        return f"REGRESSION: {self.ratio:.1f}x worse than target (fails above {HARD_FACTOR:.0f}x)"

    def line(self) -> str:
        sign = ">=" if self.higher_is_better else "<="
        target = f"target {sign} {self.target:.3g} {self.unit}"
        return f"{self.name}: {self.value:.3g} {self.unit} ({target}) - {self.verdict}"


def report_and_check(figures: list[Figure]) -> str:
    """Print every figure against its target; raise AssertionError if any is a large regression."""
    text = "\n".join(f.line() for f in figures)
    print("\n" + text)
    failed = [f for f in figures if f.ratio > HARD_FACTOR]
    assert not failed, "large regression: " + "; ".join(f.line() for f in failed)
    return text
