import { render } from "preact";
import { AccountSession } from "./account-session";
import { App } from "./app";

const session = new AccountSession();
render(<App session={session} />, document.getElementById("app")!);
void session.start();
