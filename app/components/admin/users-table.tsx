import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Avatar } from "~/components/ui/avatar";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { RoleBadge } from "~/components/ui/role-badge";
import { Select } from "~/components/ui/select";
import { Button, buttonClasses } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { roleLabels, roles, type Role } from "~/lib/roles";
import { formatShortDate } from "~/lib/dates";
import { ofName } from "~/lib/text";

export type UserStatus = "active" | "invited" | "deactivated";

export type UserRowView = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  role: Role;
  status: UserStatus;
  createdAt: Date | string;
};

const statusTones: Record<UserStatus, BadgeTone> = { active: "green", invited: "amber", deactivated: "neutral" };
export const statusLabels: Record<UserStatus, string> = { active: "Actif", invited: "Invitation envoyée", deactivated: "Désactivé" };

export function formatSignupDate(value: Date | string): string {
  return formatShortDate(typeof value === "string" ? new Date(value) : value);
}

export function fullName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

function RoleForm({ user }: { user: UserRowView }) {
  const navigation = useNavigation();
  const pending = navigation.formData?.get("intent") === "change-role" && navigation.formData?.get("userId") === user.id;
  const selectId = `role-${user.id}`;
  return (
    // Keyed by role so the select shows the stored role again after each change.
    // `relative` keeps the visually hidden label inside the table's scrolling region.
    <Form method="post" key={`${user.id}-${user.role}`} className="relative flex items-center gap-2 whitespace-nowrap">
      <input type="hidden" name="intent" value="change-role" />
      <input type="hidden" name="userId" value={user.id} />
      <label htmlFor={selectId} className="sr-only">
        {`Rôle ${ofName(fullName(user))}`}
      </label>
      <Select
        id={selectId}
        name="role"
        defaultValue={user.role}
        compact
        options={roles.map((role) => ({ value: role, label: roleLabels[role] }))}
      />
      <Button
        type="submit"
        size="sm"
        variant="outline"
        className="px-2.5"
        disabled={pending}
        aria-label={`Appliquer le rôle choisi à ${fullName(user)}`}
      >
        {pending ? "…" : "Appliquer"}
      </Button>
    </Form>
  );
}

/** Deactivate / reactivate behind a confirmation: a dialog with JavaScript, a page section without. */
function StatusAction({ user, hydrated, confirmHref }: { user: UserRowView; hydrated: boolean; confirmHref: string }) {
  const [open, setOpen] = useState(false);
  const deactivating = user.status !== "deactivated";
  const label = deactivating ? "Désactiver" : "Réactiver";
  const classes = buttonClasses({
    variant: deactivating ? "ghost" : "outline",
    size: "sm",
    className: deactivating ? "text-red-700 hover:bg-red-50" : undefined,
  });
  if (!hydrated) {
    return (
      <a href={confirmHref} className={classes} aria-label={`${label} le compte de ${fullName(user)}`}>
        {label}
      </a>
    );
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <button type="button" className={classes} onClick={() => setOpen(true)} aria-label={`${label} le compte de ${fullName(user)}`}>
        {label}
      </button>
      <DialogContent>
        <ConfirmStatusBody user={user} onCancel={() => setOpen(false)} onSubmit={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

/** The confirmation itself, shared by the dialog and the no-JavaScript page section. */
export function ConfirmStatusBody({
  user,
  onCancel,
  onSubmit,
  cancelHref,
  inline,
}: {
  user: UserRowView;
  onCancel?: () => void;
  onSubmit?: () => void;
  cancelHref?: string;
  inline?: boolean;
}) {
  const deactivating = user.status !== "deactivated";
  const title = deactivating ? `Désactiver le compte de ${fullName(user)} ?` : `Réactiver le compte de ${fullName(user)} ?`;
  const text = deactivating
    ? "Cette personne ne pourra plus se connecter et ses sessions en cours prendront fin immédiatement. Vous pourrez réactiver le compte plus tard."
    : "Cette personne pourra de nouveau se connecter avec son mot de passe.";
  const Title = inline ? "h2" : DialogTitle;
  const Description = inline ? "p" : DialogDescription;
  return (
    <>
      <DialogHeaderOr inline={inline}>
        <Title className="text-lg font-semibold text-slate-900">{title}</Title>
        <Description className="text-sm text-slate-600">{text}</Description>
      </DialogHeaderOr>
      <Form method="post" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value={deactivating ? "deactivate" : "reactivate"} />
        <input type="hidden" name="userId" value={user.id} />
        <DialogFooter>
          {onCancel && (
            <Button variant="ghost" onClick={onCancel}>
              Annuler
            </Button>
          )}
          {cancelHref && (
            <a href={cancelHref} className={buttonClasses({ variant: "ghost" })}>
              Annuler
            </a>
          )}
          <Button type="submit" className={deactivating ? "bg-red-700 hover:bg-red-800" : undefined}>
            {deactivating ? "Désactiver le compte" : "Réactiver le compte"}
          </Button>
        </DialogFooter>
      </Form>
    </>
  );
}

function DialogHeaderOr({ inline, children }: { inline?: boolean; children: React.ReactNode }) {
  return inline ? <div className="mb-4 space-y-1.5">{children}</div> : <DialogHeader>{children}</DialogHeader>;
}

/** An address that may wrap only before its "@". */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at <= 0) return <span className="whitespace-nowrap">{email}</span>;
  return (
    <span>
      <span className="whitespace-nowrap">{email.slice(0, at)}</span>
      <wbr />
      <span className="whitespace-nowrap">{email.slice(at)}</span>
    </span>
  );
}

export function UsersTable({
  users,
  currentUserId,
  hydrated,
  confirmHref,
}: {
  users: UserRowView[];
  currentUserId: string;
  hydrated: boolean;
  confirmHref: (userId: string) => string;
}) {
  if (users.length === 0) {
    return <p className="px-5 py-10 text-center text-slate-600">Aucun utilisateur ne correspond à ces critères.</p>;
  }
  return (
    <Table label="Liste des utilisateurs">
      <TableHeader>
        <TableRow>
          <TableHead>Utilisateur</TableHead>
          <TableHead>Rôle</TableHead>
          <TableHead>Inscription</TableHead>
          <TableHead>Statut</TableHead>
          <TableHead>Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => {
          const isSelf = user.id === currentUserId;
          return (
            <TableRow key={user.id} data-user-email={user.email}>
              <TableCell>
                <div className="flex items-center gap-3">
                  <Avatar firstName={user.firstName} lastName={user.lastName} email={user.email} size="sm" />
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {fullName(user)}
                      {isSelf && <span className="ml-2 text-xs font-normal text-slate-600">(vous)</span>}
                    </p>
                    <p className="text-sm text-slate-600">
                      <EmailText email={user.email} />
                    </p>
                    {user.phone && <p className="text-xs text-slate-600">{user.phone}</p>}
                  </div>
                </div>
              </TableCell>
              <TableCell>
                {isSelf ? (
                  <span title="Vous ne pouvez pas retirer votre propre rôle d'administrateur.">
                    <RoleBadge role={user.role} />
                  </span>
                ) : (
                  <RoleForm user={user} />
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatSignupDate(user.createdAt)}</TableCell>
              <TableCell>
                <Badge tone={statusTones[user.status]} className="whitespace-nowrap">
                  {statusLabels[user.status]}
                </Badge>
              </TableCell>
              <TableCell>
                <div className="flex flex-col items-start gap-1">
                  {user.status === "invited" && (
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend-invitation" />
                      <input type="hidden" name="userId" value={user.id} />
                      <Button
                        type="submit"
                        size="sm"
                        variant="ghost"
                        className="whitespace-nowrap"
                        aria-label={`Renvoyer l'invitation à ${fullName(user)}`}
                      >
                        Renvoyer l'invitation
                      </Button>
                    </Form>
                  )}
                  {!isSelf && <StatusAction user={user} hydrated={hydrated} confirmHref={confirmHref(user.id)} />}
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
