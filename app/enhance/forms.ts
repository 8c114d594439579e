/**
 * Forms sent without leaving the page, shared by the public pages (progressive.ts) and the
 * learner's space (learner.ts): neither hydrates React (docs/decisions/0024).
 */
/** A submit button says it is working, and a second click sends nothing. */
export function pending(form: HTMLFormElement, busy: boolean) {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!button) return;
  button.disabled = busy;
  const label = button.dataset.pendingLabel;
  if (!label) return;
  if (busy) {
    button.dataset.idleLabel = button.textContent ?? "";
    button.textContent = label;
  } else if (button.dataset.idleLabel !== undefined) {
    button.textContent = button.dataset.idleLabel;
  }
}

export async function post(form: HTMLFormElement) {
  const response = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "text/html" } });
  return { response, page: new DOMParser().parseFromString(await response.text(), "text/html") };
}

export function connectionLost(form: HTMLFormElement) {
  let message = form.querySelector<HTMLElement>("[data-connection-lost]");
  if (!message) {
    message = document.createElement("p");
    message.dataset.connectionLost = "";
    message.setAttribute("role", "alert");
    message.className = "mt-3 text-sm font-medium text-red-700";
    form.append(message);
  }
  message.textContent = "La connexion a été interrompue : votre saisie est conservée, réessayez.";
}

/**
 * A form marked data-enhance="<id>" is sent without leaving the page: the server's answer (the
 * same page it renders without JavaScript) replaces the element of that id, and the focus goes to
 * the first error or to the confirmation. What was typed stays if the connection drops.
 */
export function enhanceForms() {
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.enhance || event.defaultPrevented) return;
    event.preventDefault();
    if (form.querySelector<HTMLButtonElement>("button[type=submit]")?.disabled) return;
    pending(form, true);
    try {
      const { response, page } = await post(form);
      const region = document.getElementById(form.dataset.enhance);
      const answer = page.getElementById(form.dataset.enhance);
      if (!region || !answer) {
        location.assign(response.url);
        return;
      }
      const replaced = document.importNode(answer, true);
      region.replaceWith(replaced);
      // The first field in error, else what the whole form was refused for, else the confirmation.
      const target =
        replaced.querySelector<HTMLElement>("[aria-invalid=true]") ??
        replaced.querySelector<HTMLElement>("[role=alert]") ??
        replaced.querySelector<HTMLElement>("[role=status]");
      // Redirected to a confirmation: the address says so (fetch does not see the fragment).
      if (response.redirected) history.replaceState(history.state, "", target?.id ? `${response.url}#${target.id}` : response.url);
      if (target) {
        if (!target.matches("input, select, textarea, button, a[href]")) target.tabIndex = -1;
        target.focus();
      }
    } catch {
      pending(form, false);
      connectionLost(form);
    }
  });
}
