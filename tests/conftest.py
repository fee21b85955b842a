import os
import sys

# tests import `helpers` as a plain module
sys.path.insert(0, os.path.dirname(__file__))

# the browser tests' fixtures (the app served on 127.0.0.1, Chromium, a fresh page)
from browser_helpers import browser, page, server, shots  # noqa: E402,F401
