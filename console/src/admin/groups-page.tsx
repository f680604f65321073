import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";
import { GroupDetail } from "./group-detail";

export interface GroupNode {
  id: string;
  name: string;
  description?: string;
  path?: string;
  attributes?: Record<string, string[]>;
  subGroups?: GroupNode[];
  memberCount?: number;
  roleCount?: number;
}

/** Every group of a tree, depth first, for pickers. */
export function flattenGroups(tree: GroupNode[]): GroupNode[] {
  return tree.flatMap((g) => [g, ...flattenGroups(g.subGroups ?? [])]);
}

/** Groups (spec 4.6) as a tree; the chosen group's members, roles and sub-groups beside it. */
export function GroupsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/groups`;
  const tree = useLoad(() => p.session.request<GroupNode[]>("GET", base), [base]);
  const [selected, setSelected] = useState<string>("");
  const form = useForm<Values>({ name: "", description: "" }, async (v) => {
    const created = await p.session.request<GroupNode>("POST", base, {
      name: String(v.name).trim(), ...(String(v.description).trim() ? { description: String(v.description).trim() } : {}),
    });
    form.set("name", "");
    form.set("description", "");
    tree.reload();
    setSelected(created.id);
  });
  const chosen = flattenGroups(tree.data ?? []).find((g) => g.id === selected);
  return (
    <>
      <div class="page-head"><h1>Groups</h1></div>
      <div class="split">
        <Section title="Group tree">
          <ErrorAlert message={tree.error} />
          {tree.loading && !tree.data ? <Loading what="groups" /> : (tree.data ?? []).length === 0 ? <Empty what="groups" /> : (
            <Tree nodes={tree.data!} selected={selected} onSelect={setSelected} />
          )}
          <form onSubmit={form.submit} noValidate aria-label="Create group" class="stacked">
            <h3>Create group</h3>
            <TextField form={form} name="name" label="Group name" required />
            <TextField form={form} name="description" label="Description" />
            <FormFooter form={form} submit="Create group" />
          </form>
        </Section>
        {chosen ? (
          <GroupDetail key={chosen.id} session={p.session} realm={p.realm} group={chosen}
            onChanged={tree.reload} onDeleted={() => { setSelected(""); tree.reload(); }} onSelect={setSelected} />
        ) : <Section title="Group"><p class="muted">Choose a group in the tree to see its members and roles.</p></Section>}
      </div>
    </>
  );
}

function Tree(p: { nodes: GroupNode[]; selected: string; onSelect(id: string): void }): JSX.Element {
  return (
    <ul class="tree">
      {p.nodes.map((g) => (
        <li>
          <button type="button" class="link" aria-current={g.id === p.selected ? "true" : undefined} onClick={() => p.onSelect(g.id)}>{g.name}</button>
          {(g.subGroups ?? []).length > 0 ? <Tree nodes={g.subGroups!} selected={p.selected} onSelect={p.onSelect} /> : null}
        </li>
      ))}
    </ul>
  );
}
