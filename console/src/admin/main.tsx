import { render } from "preact";
import { AdminSession } from "./admin-session";
import { App } from "./app";

render(<App session={new AdminSession()} />, document.getElementById("app")!);
