import { Input } from "~/components/ui/input";
import { buttonClasses } from "~/components/ui/button";

/** "Vérifier un certificat": a plain GET form (the public pages load no React), the code as printed on the certificate. */
export function VerifyForm({ value = "", error }: { value?: string; error?: string | null }) {
  return (
    <form method="get" action="/certificats" className="space-y-2" noValidate>
      <label htmlFor="code-certificat" className="block font-medium text-slate-900">
        Numéro du certificat
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="code-certificat"
          name="code"
          defaultValue={value}
          placeholder="ICEF-XXXX-XXXX-XXXX"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "code-certificat-erreur" : "code-certificat-aide"}
          className="font-mono sm:max-w-xs"
        />
        <button type="submit" className={buttonClasses()}>
          Vérifier
        </button>
      </div>
      {error ? (
        <p id="code-certificat-erreur" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : (
        <p id="code-certificat-aide" className="text-sm text-slate-600">
          Il figure en bas à droite du certificat, sous le QR code.
        </p>
      )}
    </form>
  );
}
