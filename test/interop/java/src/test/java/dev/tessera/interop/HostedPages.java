package dev.tessera.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The user's browser on Tessera's hosted pages, played over plain HTTP (no test here): a cookie
 * store (the login transaction and SSO cookies are scoped to /realms/&lt;realm&gt;/) and no redirect
 * following, so the redirect back to the relying party is read from its Location and never sent:
 * nothing listens at the registered redirect_uri.
 */
final class HostedPages {
  private static final Pattern FORM = Pattern.compile("(?s)<form\\b([^>]*)>(.*?)</form>");
  private static final Pattern INPUT = Pattern.compile("<input\\b([^>]*)>");
  private static final Pattern ACTION = attr("action");
  private static final Pattern NAME = attr("name");
  private static final Pattern VALUE = attr("value");

  private final HttpClient http = HttpClient.newBuilder()
      .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ORIGINAL_SERVER))
      .followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(10))
      .build();

  private static Pattern attr(String name) {
    return Pattern.compile("\\b" + name + "=\"([^\"]*)\"");
  }

  HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Posts the page's first form as a browser would: to its action (resolved against the page's
   * URL), with every input it renders (the hidden tx, csrf and step among them) and {@code values}
   * filled in or overriding.
   */
  HttpResponse<String> submit(HttpResponse<String> page, Map<String, String> values)
      throws IOException, InterruptedException {
    Matcher form = FORM.matcher(page.body());
    if (!form.find()) {
      throw new AssertionError("no form on the page (status " + page.statusCode() + "): " + head(page.body()));
    }
    Matcher action = ACTION.matcher(form.group(1));
    if (!action.find()) {
      throw new AssertionError("the form has no action: " + form.group(1));
    }
    URI target = page.uri().resolve(unescape(action.group(1)));
    Map<String, String> fields = fields(form.group(2));
    fields.putAll(values);
    String body = fields.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    return http.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Submits the hosted login page's credentials form; the page must be that form (step=login). */
  HttpResponse<String> signIn(HttpResponse<String> page, String username, String password)
      throws IOException, InterruptedException {
    assertEquals(200, page.statusCode(), () -> "expected the login page: " + head(page.body()));
    Matcher form = FORM.matcher(page.body());
    assertEquals("login", form.find() ? fields(form.group(2)).get("step") : null, () -> "expected the login form: " + head(page.body()));
    return submit(page, Map.of("username", username, "password", password));
  }

  /** The Location of a redirect, which is never followed. */
  static URI location(HttpResponse<String> res) {
    assertEquals(302, res.statusCode(), () -> "want the redirect back to the client: " + head(res.body()));
    String location = res.headers().firstValue("Location").orElse(null);
    assertNotNull(location, "302 without a Location");
    return URI.create(location);
  }

  private static Map<String, String> fields(String formBody) {
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher input = INPUT.matcher(formBody);
    while (input.find()) {
      Matcher name = NAME.matcher(input.group(1));
      if (!name.find()) continue;
      Matcher value = VALUE.matcher(input.group(1));
      fields.put(unescape(name.group(1)), value.find() ? unescape(value.group(1)) : "");
    }
    return fields;
  }

  /** HTML character references as an attribute value may carry them (named ones the page uses, numeric). */
  private static String unescape(String s) {
    Matcher ref = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);").matcher(s);
    StringBuilder out = new StringBuilder();
    while (ref.find()) {
      String r = ref.group(1);
      String c = switch (r) {
        case "amp" -> "&";
        case "lt" -> "<";
        case "gt" -> ">";
        case "quot" -> "\"";
        case "apos" -> "'";
        default -> Character.toString(r.startsWith("#x") ? Integer.parseInt(r.substring(2), 16) : Integer.parseInt(r.substring(1)));
      };
      ref.appendReplacement(out, Matcher.quoteReplacement(c));
    }
    ref.appendTail(out);
    return out.toString();
  }

  static String head(String body) {
    return body.length() > 400 ? body.substring(0, 400) : body;
  }
}
