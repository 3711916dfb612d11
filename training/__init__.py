"""Training: single-agent Gymnasium wrapper, self-play, MaskablePPO runner."""
