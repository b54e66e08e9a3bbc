"""The browser tests run only inside the loopback-only network namespace made by test_browser.py."""

import os

collect_ignore = [] if os.environ.get("P2P_DOMINOES_BROWSER_NAMESPACE") == "1" else ["browser"]
