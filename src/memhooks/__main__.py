"""``python -m memhooks``."""

from memhooks.cli import main

raise SystemExit(main())
