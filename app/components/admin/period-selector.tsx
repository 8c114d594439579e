import { RefreshCw } from "~/components/icons";
import { Form } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Select } from "~/components/ui/select";
import { financePeriodIds, financePeriods, type FinancePeriod } from "~/lib/finance";

/**
 * The period of the admin screens (7 jours, 30 jours, 90 jours, 1 an) and "Actualiser": a GET
 * form, so the figures are read again from the database, with or without JavaScript.
 */
export function PeriodSelector({
  period,
  keep = {},
  id = "periode",
}: {
  period: FinancePeriod;
  keep?: Record<string, string>;
  id?: string;
}) {
  return (
    <Form method="get" className="flex items-end gap-2" aria-label="Choisir la période" key={period}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
          Période
        </label>
        <Select
          id={id}
          name="periode"
          defaultValue={period}
          options={financePeriodIds.map((value) => ({ value, label: financePeriods[value].label }))}
        />
      </div>
      <button type="submit" className={buttonClasses({ variant: "outline" })}>
        <RefreshCw aria-hidden="true" className="size-4" />
        Actualiser
      </button>
    </Form>
  );
}
