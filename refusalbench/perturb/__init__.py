"""The programmatic (rule-based, seeded, free) perturbation generator.

```python
from refusalbench.perturb import generate_programmatic, PROGRAMMATIC_LEVERS_FILES, DistractorPool
pool = DistractorPool.from_base(base_table)
out = generate_programmatic(base_row, "P-MissingInfo", "HIGH", seed=7, pool=pool)
```
"""

from refusalbench.perturb.base import NotApplicable
from refusalbench.perturb.distractors import DistractorPool
from refusalbench.perturb.engine import (
    PROGRAMMATIC_LEVERS_DIR,
    PROGRAMMATIC_LEVERS_FILES,
    code_fingerprint,
    coverage,
    format_coverage,
    generate_programmatic,
    implemented_levers,
)

__all__ = [
    "NotApplicable",
    "DistractorPool",
    "PROGRAMMATIC_LEVERS_DIR",
    "PROGRAMMATIC_LEVERS_FILES",
    "code_fingerprint",
    "coverage",
    "format_coverage",
    "generate_programmatic",
    "implemented_levers",
]
