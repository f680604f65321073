"""Creates a realm on a Tessera directory service over gRPC, reads it back and prints it as JSON.

    TESSERA_DIRECTORY_ADDRESS=127.0.0.1:50051 TESSERA_API_KEY=tsk_... python create_realm.py acme
"""

import json
import os
import sys

import grpc

import tessera_grpc
from tessera_grpc.iam.directory.v1 import realm_pb2, realm_pb2_grpc


def main() -> int:
    address = os.environ.get("TESSERA_DIRECTORY_ADDRESS")
    api_key = os.environ.get("TESSERA_API_KEY")
    if len(sys.argv) != 2 or not address or not api_key:
        print("usage: TESSERA_DIRECTORY_ADDRESS=<host:port> TESSERA_API_KEY=<admin API key> create_realm.py <name>", file=sys.stderr)
        return 64
    name = sys.argv[1]
    with tessera_grpc.channel(address, api_key) as channel:
        realms = realm_pb2_grpc.RealmServiceStub(channel)
        try:
            realms.CreateRealm(
                realm_pb2.CreateRealmRequest(realm=realm_pb2.RealmInput(name=name, display_name="Created over gRPC (Python)")),
                timeout=10,
            )
            realm = realms.GetRealm(realm_pb2.GetRealmRequest(name=name), timeout=10).realm
        except grpc.RpcError as e:
            # The status code's name and the service's message (e.g. NOT_FOUND: realm "x" not found).
            print(f"{e.code().name}: {e.details()}", file=sys.stderr)
            return 1
    print(json.dumps({
        "id": realm.id,
        "name": realm.name,
        "displayName": realm.display_name,
        "enabled": realm.enabled,
        "accessTokenLifespan": realm.access_token_lifespan,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
