"""The OpenAPI file documents every API route the app serves (and nothing it doesn't)."""

from __future__ import annotations

import re
from importlib import resources


def _documented() -> set[str]:
    text = resources.files("pi_app.web").joinpath("openapi.yaml").read_text("utf-8")
    return set(re.findall(r"^  (/api/\S+):$", text, flags=re.M))


def test_every_api_route_is_documented(app):
    served = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
    }
    documented = _documented()
    assert served - documented == set(), "routes missing from openapi.yaml"
    assert documented - served == set(), "openapi.yaml documents routes that do not exist"
