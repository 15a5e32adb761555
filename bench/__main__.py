"""``python -m bench``: run every figure of the benchmark."""

from bench.run import main

raise SystemExit(main())
