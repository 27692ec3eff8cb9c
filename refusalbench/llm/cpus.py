"""How many CPUs this process may use: its affinity mask, capped by a cgroup CPU quota (containers)."""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "QUOTA PERIOD" or "max PERIOD"


def cgroup_cpu_limit(path: Path = CGROUP_CPU_MAX) -> float | None:
    """CPUs allowed by the cgroup v2 quota (e.g. 1.5), or None when there is no quota."""
    try:
        quota, period = path.read_text().split()[:2]
        if quota == "max":
            return None
        return max(float(quota) / float(period), 0.0) or None
    except (OSError, ValueError):
        return None


def available_cpus() -> int:
    """CPUs this process may run on (affinity), at most the cgroup quota rounded up; at least 1."""
    try:
        n = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        n = os.cpu_count() or 1
    quota = cgroup_cpu_limit()
    if quota is not None:
        n = min(n, math.ceil(quota))
    return max(1, n)
