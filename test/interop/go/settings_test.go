package interop

import (
	"os"
	"testing"
)

// settings are what the jest wrapper (test/interop/go-oidc.interop.test.ts) provisioned through
// the Admin API and passes by environment: a realm's issuer, a confidential web client, a
// confidential client that authenticates with private_key_jwt (its private JWK), a public device
// client and one user.
type settings struct {
	issuer         string
	clientID       string
	clientSecret   string
	redirectURI    string
	jwtClientID    string
	jwtPrivateJWK  string
	deviceClientID string
	username       string
	password       string
	userID         string
	email          string
}

// load fails the test (never skips it) when a value is missing: run alone, `go test` would
// otherwise pass with nothing checked, and the jest wrapper reads a pass as evidence.
func load(t *testing.T) settings {
	t.Helper()
	get := func(name string) string {
		v := os.Getenv(name)
		if v == "" {
			t.Fatalf("%s is not set: run this through test/interop/go-oidc.interop.test.ts (README, Tests)", name)
		}
		return v
	}
	return settings{
		issuer:         get("TESSERA_INTEROP_ISSUER"),
		clientID:       get("TESSERA_INTEROP_CLIENT_ID"),
		clientSecret:   get("TESSERA_INTEROP_CLIENT_SECRET"),
		redirectURI:    get("TESSERA_INTEROP_REDIRECT_URI"),
		jwtClientID:    get("TESSERA_INTEROP_JWT_CLIENT_ID"),
		jwtPrivateJWK:  get("TESSERA_INTEROP_JWT_PRIVATE_JWK"),
		deviceClientID: get("TESSERA_INTEROP_DEVICE_CLIENT_ID"),
		username:       get("TESSERA_INTEROP_USERNAME"),
		password:       get("TESSERA_INTEROP_PASSWORD"),
		userID:         get("TESSERA_INTEROP_USER_ID"),
		email:          get("TESSERA_INTEROP_EMAIL"),
	}
}
