import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { LIMITS } from "~/lib/limits";
import { buttonClasses } from "./button";
import { cx } from "./control";
import { Field } from "./field";
import { Input } from "./input";
import { Select } from "./select";

export type FilterChoice = {
  /** The query parameter, in French like the URLs ("statut", "categorie", "role"). */
  name: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  className?: string;
};

/**
 * The filters above a list: a GET form (the filters are the URL, so they work without JavaScript,
 * can be bookmarked and shared), a search box, choices, "Filtrer" and "Effacer" when something is
 * filtered. Keyed by the current values, so its fields follow each navigation.
 *
 *   <FilterBar label="Rechercher des utilisateurs" id="users" search={{ value: filters.q, placeholder: "Nom ou e-mail" }}
 *     choices={[{ name: "role", label: "Rôle", value: filters.role, options }]} clearHref={filtered ? USERS_PATH : null} />
 */
export function FilterBar({
  label,
  id,
  search,
  choices = [],
  hidden = {},
  clearHref = null,
  submit = "Filtrer",
  className,
}: {
  label: string;
  /** Prefix of the fields' ids (unique on the page). */
  id: string;
  search?: { value: string; placeholder?: string; label?: string };
  choices?: FilterChoice[];
  /** Parameters kept as they are (the tab the list sits in...). */
  hidden?: Record<string, string>;
  /** Where "Effacer" leads (the list without filters); no button when null. */
  clearHref?: string | null;
  submit?: ReactNode;
  className?: string;
}) {
  const key = [search?.value ?? "", ...choices.map((choice) => choice.value)].join("|");
  return (
    <Form
      key={key}
      method="get"
      role="search"
      aria-label={label}
      className={cx("flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end", className)}
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {search ? (
        <Field label={search.label ?? "Rechercher"} name="q" id={`${id}-q`} className="min-w-48 flex-1">
          {(field) => (
            <Input {...field} type="search" defaultValue={search.value} placeholder={search.placeholder} maxLength={LIMITS.search} />
          )}
        </Field>
      ) : null}
      {choices.map((choice) => (
        <Field
          key={choice.name}
          label={choice.label}
          name={choice.name}
          id={`${id}-${choice.name}`}
          className={choice.className ?? "sm:w-56"}
        >
          {(field) => <Select {...field} defaultValue={choice.value} options={choice.options} />}
        </Field>
      ))}
      <button type="submit" className={buttonClasses({ variant: "primary" })}>
        {submit}
      </button>
      {clearHref ? (
        <Link to={clearHref} className={buttonClasses({ variant: "ghost" })}>
          Effacer
        </Link>
      ) : null}
    </Form>
  );
}
