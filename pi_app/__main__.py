"""Allow `python -m pi_app` as a synonym for the `riskboard` command."""

import sys

from pi_app.cli import main

sys.exit(main())
