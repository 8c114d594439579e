import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { formatMinutes } from "~/lib/format";
import { sessionDurations, sessionRoomLabels, type SessionFormValues } from "~/lib/live-sessions";

/**
 * The live session form ("Planifier Session", and a session's edit form): a course, a title, a
 * start in Bamako time, a duration, a description, and the room (a pasted link, or BigBlueButton
 * when the server has it). Plain fields: it works without JavaScript.
 */
export function SessionForm({
  intent,
  courses,
  values,
  failure,
  bigBlueButton,
  editing,
  submitLabel,
}: {
  intent: string;
  courses: Array<{ id: number; title: string }>;
  values: SessionFormValues;
  failure: FormFailure<SessionFormValues> | null;
  bigBlueButton: boolean;
  editing: boolean;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const shown = failure?.values ?? values;
  const error = (name: keyof SessionFormValues) => failure?.fieldErrors[name] ?? null;
  return (
    <Form method="post" className="space-y-5" noValidate>
      <input type="hidden" name="intent" value={intent} />
      {failure?.message ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {failure.message}
        </p>
      ) : failure ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          Vérifiez les champs signalés.
        </p>
      ) : null}
      <Field
        label="Cours"
        name="courseId"
        required
        error={error("courseId")}
        hint={editing ? "Une session reste dans son cours." : undefined}
      >
        {(props) =>
          editing ? (
            <>
              <Select
                {...props}
                disabled
                defaultValue={shown.courseId}
                options={courses.map((c) => ({ value: String(c.id), label: c.title }))}
              />
              <input type="hidden" name="courseId" value={shown.courseId} />
            </>
          ) : (
            <Select
              {...props}
              defaultValue={shown.courseId}
              placeholder="Choisissez un cours"
              options={courses.map((c) => ({ value: String(c.id), label: c.title }))}
            />
          )
        }
      </Field>
      <Field label="Titre" name="title" required error={error("title")}>
        {(props) => <Input {...props} defaultValue={shown.title} maxLength={LIMITS.title} placeholder="Questions-réponses du module 2" />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Début (heure de Bamako)" name="startsAt" required error={error("startsAt")}>
          {(props) => <Input {...props} type="datetime-local" defaultValue={shown.startsAt} />}
        </Field>
        <Field label="Durée" name="durationMinutes" required error={error("durationMinutes")}>
          {(props) => (
            <Select
              {...props}
              defaultValue={shown.durationMinutes}
              options={sessionDurations.map((minutes) => ({ value: String(minutes), label: formatMinutes(minutes) }))}
            />
          )}
        </Field>
      </div>
      <Field label="Description" name="description" optional error={error("description")} hint="Ce que les apprenants doivent préparer.">
        {(props) => <Textarea {...props} rows={3} defaultValue={shown.description} maxLength={LIMITS.longText} />}
      </Field>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-900">Salle</legend>
        {bigBlueButton ? (
          <div className="space-y-2">
            {(["bigbluebutton", "link"] as const).map((room) => (
              <label key={room} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="radio" name="room" value={room} defaultChecked={shown.room === room} className="size-4 accent-brand-700" />
                {sessionRoomLabels[room]}
              </label>
            ))}
            {error("room") ? <p className="text-sm text-red-700">{error("room")}</p> : null}
          </div>
        ) : (
          <input type="hidden" name="room" value="link" />
        )}
        <Field
          label="Lien de la salle"
          name="joinUrl"
          optional={bigBlueButton}
          required={!bigBlueButton}
          error={error("joinUrl")}
          hint={
            bigBlueButton
              ? "Seulement pour « Lien de ma salle ». Les apprenants ne le voient qu'au moment de rejoindre."
              : "Zoom, Google Meet, Jitsi… Les apprenants ne le voient qu'au moment de rejoindre (10 minutes avant le début)."
          }
        >
          {(props) => <Input {...props} type="url" inputMode="url" defaultValue={shown.joinUrl} placeholder="https://meet.google.com/…" />}
        </Field>
      </fieldset>
      {editing ? (
        <Field
          label="Lien de l'enregistrement"
          name="recordingUrl"
          optional
          error={error("recordingUrl")}
          hint="Après la session : où la revoir."
        >
          {(props) => <Input {...props} type="url" inputMode="url" defaultValue={shown.recordingUrl} />}
        </Field>
      ) : null}
      <Button type="submit" disabled={busy} className="w-full sm:w-auto">
        {busy ? "Enregistrement…" : submitLabel}
      </Button>
    </Form>
  );
}
