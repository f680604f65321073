import { createHash } from "node:crypto";

/**
 * The show-password toggle (progressive enhancement): for each `input[data-password-toggle]` it adds
 * a Show/Hide button that switches the field between password and text. Without script the field
 * stays a plain password field and nothing is missing. Inline, admitted by its hash alone (CSP3
 * section 8.2 hash-source): no nonce, no 'unsafe-inline', nothing else runs. Its words come from
 * the data attributes of #password-toggle-words (layout.njk), in the page's language, so the
 * script (and its hash) stays one for every locale.
 */
export const PASSWORD_TOGGLE_SCRIPT = [
  "(function () {",
  "  var words = document.getElementById(\"password-toggle-words\").dataset;",
  "  document.querySelectorAll(\"input[data-password-toggle]\").forEach(function (input) {",
  "    var b = document.createElement(\"button\");",
  "    b.type = \"button\";",
  "    b.className = \"password-toggle\";",
  "    b.setAttribute(\"aria-controls\", input.id);",
  "    function show(visible) {",
  "      input.type = visible ? \"text\" : \"password\";",
  "      b.textContent = visible ? words.hide : words.show;",
  "      b.setAttribute(\"aria-label\", visible ? words.hidePassword : words.showPassword);",
  "      b.setAttribute(\"aria-pressed\", String(visible));",
  "    }",
  "    b.addEventListener(\"click\", function () { show(input.type === \"password\"); input.focus(); });",
  "    show(false);",
  "    input.parentNode.classList.add(\"has-toggle\");",
  "    input.parentNode.insertBefore(b, input.nextSibling);",
  "    if (input.form) input.form.addEventListener(\"submit\", function () { show(false); });",
  "  });",
  "})();",
].join("\n");

/** The CSP hash-source admitting exactly PASSWORD_TOGGLE_SCRIPT. */
export const PASSWORD_TOGGLE_SOURCE = `'sha256-${createHash("sha256").update(PASSWORD_TOGGLE_SCRIPT, "utf8").digest("base64")}'`;
