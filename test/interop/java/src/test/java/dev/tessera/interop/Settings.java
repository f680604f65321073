package dev.tessera.interop;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the jest wrapper (test/interop/nimbus.interop.test.ts) provisioned through the Admin API and
 * passes by environment: a realm's issuer, a confidential web client and one user.
 */
record Settings(String issuer, String clientId, String clientSecret, String redirectUri,
                String username, String password, String userId, String email) {

  /**
   * Fails (never skips) when a value is missing: run alone, `mvn test` would otherwise pass with
   * nothing checked, and the jest wrapper reads a pass as evidence.
   */
  static Settings load() {
    return new Settings(get("TESSERA_INTEROP_ISSUER"), get("TESSERA_INTEROP_CLIENT_ID"),
        get("TESSERA_INTEROP_CLIENT_SECRET"), get("TESSERA_INTEROP_REDIRECT_URI"),
        get("TESSERA_INTEROP_USERNAME"), get("TESSERA_INTEROP_PASSWORD"),
        get("TESSERA_INTEROP_USER_ID"), get("TESSERA_INTEROP_EMAIL"));
  }

  private static String get(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      fail(name + " is not set: run this through test/interop/nimbus.interop.test.ts (README, Tests)");
    }
    return value;
  }
}
