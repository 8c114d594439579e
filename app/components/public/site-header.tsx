import { Link, NavLink } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import { signInHref, signUpHref, telHref } from "./links";
import { LogoMark } from "./logo";
import { Icon } from "~/components/public/icon";

export const mainNavigation = [
  { to: "/", label: "Accueil" },
  { to: "/formations", label: "Formations" },
  { to: "/a-propos", label: "À propos" },
  { to: "/contact", label: "Contact" },
] as const;

export interface HeaderInstitute {
  name: string;
  shortName: string;
  tagline: string;
  phones: string[];
  email: string;
  openingHours: { days: string; hours: string }[];
}

/** The signed-in visitor, if any: the header then leads to their space instead of "Connexion / S'inscrire". */
export type HeaderAccount = { firstName: string; href: string } | null;

function AccountLinks({ account, mobile = false }: { account: HeaderAccount; mobile?: boolean }) {
  if (account) {
    return (
      <Link to={account.href} className={buttonClasses({ size: mobile ? "md" : "sm", className: mobile ? "col-span-2" : "px-4" })}>
        Mon espace
      </Link>
    );
  }
  return (
    <>
      <Link to={signInHref} className={buttonClasses({ variant: mobile ? "outline" : "ghost", size: mobile ? "md" : "sm" })}>
        Connexion
      </Link>
      <Link to={signUpHref} className={buttonClasses({ size: mobile ? "md" : "sm", className: mobile ? undefined : "px-4" })}>
        S'inscrire
      </Link>
    </>
  );
}

export function SiteHeader({ institute, account = null }: { institute: HeaderInstitute; account?: HeaderAccount }) {
  const phone = institute.phones[0];
  const hours = institute.openingHours[0];

  return (
    <header className="relative z-40 border-b border-slate-200 bg-white/95 shadow-sm backdrop-blur supports-backdrop-filter:bg-white/85 lg:sticky lg:top-0">
      <div className="bg-brand-800 text-sm text-white">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-1.5 sm:px-6 lg:px-8">
          {hours ? (
            <p className="hidden items-center gap-1.5 text-brand-100 sm:inline-flex">
              <Icon name="clock" className="size-3.5" aria-hidden="true" />
              {hours.days}&nbsp;: {hours.hours}
            </p>
          ) : null}
          <div className="ml-auto flex items-center gap-5">
            {phone ? (
              <a href={telHref(phone)} className="inline-flex items-center gap-1.5 font-medium hover:underline">
                <Icon name="phone" className="size-3.5" aria-hidden="true" />
                <span className="sr-only">Téléphone : </span>
                {phone}
              </a>
            ) : null}
            <a href={`mailto:${institute.email}`} className="hidden items-center gap-1.5 hover:underline md:inline-flex">
              <Icon name="mail" className="size-3.5" aria-hidden="true" />
              <span className="sr-only">E-mail : </span>
              {institute.email}
            </a>
          </div>
        </div>
      </div>

      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6 lg:px-8">
        <Link to="/" className="flex min-w-0 items-center gap-3 rounded-md">
          <LogoMark className="size-10 shrink-0 sm:size-11" />
          <span className="flex min-w-0 flex-col leading-tight">
            <span className="text-lg font-extrabold tracking-tight text-brand-800">{institute.shortName}</span>
            <span className="max-w-[13rem] text-xs font-medium text-slate-600 sm:max-w-none">{institute.name}</span>
          </span>
        </Link>

        <nav aria-label="Navigation principale" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNavigation.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.to === "/"}
                  className={({ isActive }) =>
                    cx(
                      "relative rounded-md px-3 py-2 text-[0.95rem] font-medium transition-colors",
                      isActive
                        ? "text-brand-700 after:absolute after:inset-x-3 after:-bottom-0.5 after:h-0.5 after:rounded-full after:bg-accent-500"
                        : "text-slate-700 hover:bg-brand-50 hover:text-brand-700",
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <AccountLinks account={account} />
        </div>

        {/* Mobile menu: <details> opens and closes without JavaScript, with the keyboard too;
            app/enhance/progressive.ts adds Escape. */}
        <details data-menu className="group lg:hidden">
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
            <Icon name="menu" className="size-5 group-open:hidden" aria-hidden="true" />
            <Icon name="x" className="hidden size-5 group-open:block" aria-hidden="true" />
            Menu
          </summary>
          <div className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pt-2 pb-5 shadow-lg sm:px-6">
            <nav aria-label="Navigation principale (mobile)">
              <ul className="divide-y divide-slate-100">
                {mainNavigation.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.to === "/"}
                      className={({ isActive }) =>
                        cx(
                          "flex min-h-12 items-center rounded-md px-2 text-base font-medium",
                          isActive ? "border-l-4 border-accent-500 bg-brand-50 text-brand-800" : "text-slate-800 hover:bg-slate-50",
                        )
                      }
                    >
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            {phone ? (
              <a
                href={telHref(phone)}
                className="mt-3 flex min-h-11 items-center gap-2 rounded-md px-2 font-medium text-brand-700 hover:bg-brand-50"
              >
                <Icon name="phone" className="size-4" aria-hidden="true" />
                Appeler le {phone}
              </a>
            ) : null}
            <div className="mt-3 grid grid-cols-2 gap-3">
              <AccountLinks account={account} mobile />
            </div>
          </div>
        </details>
      </div>
    </header>
  );
}
