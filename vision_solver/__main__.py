"""``python -m vision_solver`` runs the boardsolve command."""

from .cli import main

main()
