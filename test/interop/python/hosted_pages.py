"""The user's browser on Tessera's hosted pages, played over plain HTTP (no test here).

A requests session keeps the cookies (the login transaction and the SSO session, scoped to
/realms/<realm>/) and never follows a redirect, so the redirect back to the relying party is read
from its Location and never sent: nothing listens at the registered redirect_uri. The file name is
snake_case, unlike the project's TypeScript, because Python imports modules by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

import requests


@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)


class _Forms(HTMLParser):
    """Collects each form's action and the name and value of every input it renders."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._current: Form | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._current = Form(action=a.get("action") or "")
        elif tag == "input" and self._current is not None and a.get("name"):
            self._current.fields.setdefault(a["name"], a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form" and self._current is not None:
            self.forms.append(self._current)
            self._current = None


def forms(html: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


class Browser:
    def __init__(self) -> None:
        self.http = requests.Session()

    def get(self, url: str) -> requests.Response:
        return self.http.get(url, allow_redirects=False, timeout=10)

    def submit(self, page: requests.Response, values: dict[str, str]) -> requests.Response:
        """Posts the page's first form as a browser would: to its action, resolved against the
        page's URL, with every input it renders (the hidden tx, csrf and step among them) and
        `values` filled in or overriding."""
        found = forms(page.text)
        assert found, f"no form on the page (status {page.status_code}): {page.text[:400]}"
        form = found[0]
        return self.http.post(
            urljoin(page.url, form.action), data={**form.fields, **values}, allow_redirects=False, timeout=10
        )

    def sign_in(self, page: requests.Response, username: str, password: str) -> requests.Response:
        """Submits the hosted login page's credentials form; the page must be that form."""
        assert page.status_code == 200, f"expected the login page, got {page.status_code}: {page.text[:400]}"
        assert forms(page.text)[0].fields.get("step") == "login", page.text[:400]
        return self.submit(page, {"username": username, "password": password})
