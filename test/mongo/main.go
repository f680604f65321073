// Command ferretdb-test runs FerretDB v1 (a MongoDB wire-protocol server on a SQLite backend)
// embedded as a library, so the mongo store adapter can be tested where no MongoDB server can be
// installed. `go install .../cmd/ferretdb` builds a binary that panics at start (its version.txt is
// not in the module download), which is why this wrapper exists. Test use only.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27018", "TCP address to listen on")
	dir := flag.String("dir", "/tmp/ferretdb-test", "directory for the SQLite databases (one file per database)")
	flag.Parse()

	abs, err := filepath.Abs(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		log.Fatal(err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/",
	})
	if err != nil {
		log.Fatal(err)
	}

	// SIGTERM/SIGINT cancel the context; Run returns once the listener has stopped.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	log.Printf("ferretdb-test listening on %s, data in %s", *listen, abs)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
	log.Print("ferretdb-test stopped")
}
