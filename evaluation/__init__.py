"""Measurement: eval, metrics, benchmarks, calibration and training, with their commands."""
