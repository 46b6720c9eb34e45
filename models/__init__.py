"""Shipped recognition looks (data files), installed as vision_solver.models."""
