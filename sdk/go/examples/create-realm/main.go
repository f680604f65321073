// Creates a realm on a Tessera directory service over gRPC, reads it back and prints it as JSON.
//
//	TESSERA_DIRECTORY_URL=http://127.0.0.1:50051 TESSERA_API_KEY=tsk_... go run ./examples/create-realm acme
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"connectrpc.com/connect"
	directoryv1 "github.com/tessera-iam/tessera/sdk/go/gen/iam/directory/v1"
	"github.com/tessera-iam/tessera/sdk/go/gen/iam/directory/v1/directoryv1connect"
	"github.com/tessera-iam/tessera/sdk/go/tessera"
)

func main() {
	if len(os.Args) != 2 || os.Getenv("TESSERA_DIRECTORY_URL") == "" || os.Getenv("TESSERA_API_KEY") == "" {
		fmt.Fprintln(os.Stderr, "usage: TESSERA_DIRECTORY_URL=<url> TESSERA_API_KEY=<admin API key> create-realm <name>")
		os.Exit(64)
	}
	name := os.Args[1]
	realms := directoryv1connect.NewRealmServiceClient(
		tessera.HTTPClient(), os.Getenv("TESSERA_DIRECTORY_URL"), tessera.ClientOptions(os.Getenv("TESSERA_API_KEY"))...)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	displayName := "Created over gRPC (Go)"
	if _, err := realms.CreateRealm(ctx, connect.NewRequest(&directoryv1.CreateRealmRequest{
		Realm: &directoryv1.RealmInput{Name: &name, DisplayName: &displayName},
	})); err != nil {
		fail(err)
	}
	res, err := realms.GetRealm(ctx, connect.NewRequest(&directoryv1.GetRealmRequest{Name: name}))
	if err != nil {
		fail(err)
	}
	r := res.Msg.GetRealm()
	out, _ := json.Marshal(map[string]any{
		"id": r.GetId(), "name": r.GetName(), "displayName": r.GetDisplayName(),
		"enabled": r.GetEnabled(), "accessTokenLifespan": r.GetAccessTokenLifespan(),
	})
	fmt.Println(string(out))
}

// fail prints the gRPC status code, the service's message and, when the service named them, the
// reason and field (iam.kit.v1.ErrorDetail), then exits 1.
func fail(err error) {
	msg := err.Error()
	var ce *connect.Error
	if errors.As(err, &ce) {
		msg = fmt.Sprintf("%s: %s", ce.Code(), ce.Message())
	}
	if d := tessera.ErrorDetail(err); d != nil {
		msg += fmt.Sprintf(" (reason %s", d.GetReason())
		if d.GetField() != "" {
			msg += ", field " + d.GetField()
		}
		msg += ")"
	}
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(1)
}
