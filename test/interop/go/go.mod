module tessera/test/interop/go

go 1.26.0

require (
	github.com/coreos/go-oidc/v3 v3.21.0
	github.com/go-jose/go-jose/v4 v4.1.4
	golang.org/x/oauth2 v0.37.0
)
