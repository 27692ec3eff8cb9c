"""RefusalBench: generative evaluation of selective refusal in grounded language models."""

__version__ = "0.1.0"
