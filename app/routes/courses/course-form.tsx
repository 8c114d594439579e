// Placeholder until the screen lands (issue 4): the shared "bientôt disponible" page.
export { loader, meta, default } from "../shell/coming-soon";
