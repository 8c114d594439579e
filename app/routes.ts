import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// An explicit table mirroring the spec's route table; public URLs are French.
export default [
  layout("routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("formations", "routes/public/formations.tsx"),
    route("formations/:slug", "routes/public/formation.tsx"),
    // Inside the public layout, but with the full stylesheet (routes/shop/*: handle.stylesheet).
    route("formations/:slug/apercu/:lessonId", "routes/shop/apercu.tsx"),
    route("formations/:slug/inscription", "routes/shop/inscription.tsx"),
    route("paiement/bac-a-sable/:reference", "routes/shop/sandbox-gateway.tsx"),
    route("a-propos", "routes/public/a-propos.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("confidentialite", "routes/public/confidentialite.tsx"),
    route("conditions-utilisation", "routes/public/conditions-utilisation.tsx"),
    route("mentions-legales", "routes/public/mentions-legales.tsx"),
    route("newsletter", "routes/public/newsletter.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),
  route("auth", "routes/auth/auth.tsx"),
  // Payments: where providers send the learner back, and their server-to-server notifications.
  route("paiement/retour", "routes/payments/return.tsx"),
  route("api/paiements/notification/:provider", "routes/payments/notification.ts"),
  route("auth/verification", "routes/auth/verification.tsx"),
  route("auth/deconnexion", "routes/auth/deconnexion.tsx"),
  route("connexion", "routes/auth/connexion.tsx"),
  route("inscription", "routes/auth/inscription.tsx"),
  // Signed-in areas (document 2's route table). Each loader and action guards itself:
  // /dashboard/* any signed-in user, /admin/* admins, /teacher/* and the course creator teachers
  // (or admins). Entries whose screen is not built yet, in all three areas, share one
  // "Bientôt disponible" module (routes/shell/coming-soon.tsx), which picks its guard by path.
  route("dashboard", "routes/dashboard/layout.tsx", [
    index("routes/dashboard/index.tsx"),
    route("profile", "routes/dashboard/profile.tsx"),
    route("formations", "routes/dashboard/formations.tsx"),
    route("formations/:slug", "routes/dashboard/formation.tsx"),
    route("formations/:slug/lecons/:lessonId", "routes/dashboard/lecon.tsx"),
    route("formations/:slug/lecons/:lessonId/position", "routes/dashboard/lecon-position.ts"),
    route("paiements", "routes/dashboard/paiements.tsx"),
    route("paiements/:reference", "routes/dashboard/paiement.tsx"),
    route("paiements/:reference/recu.pdf", "routes/dashboard/recu.ts"),
    ...["forum", "messages", "certificates"].map((path) => route(path, "routes/shell/coming-soon.tsx", { id: `dashboard/${path}` })),
    // The course form (new, edit): teachers and admins.
    route("course-creator", "routes/courses/course-form.tsx", { id: "dashboard/course-creator" }),
    route("course-creator/:id", "routes/courses/course-form.tsx", { id: "dashboard/course-creator/:id" }),
  ]),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/shell/coming-soon.tsx", { id: "admin/index" }),
    route("users", "routes/admin/users.tsx"),
    route("my-courses", "routes/courses/course-list.tsx", { id: "admin/my-courses" }),
    route("create-course", "routes/courses/course-form.tsx", { id: "admin/create-course" }),
    route("financial", "routes/admin/financial.tsx"),
    route("analytics", "routes/shell/coming-soon.tsx", { id: "admin/analytics" }),
  ]),
  route("teacher", "routes/teacher/layout.tsx", [
    index("routes/shell/coming-soon.tsx", { id: "teacher/index" }),
    route("courses", "routes/courses/course-list.tsx", { id: "teacher/courses" }),
    route("create-course", "routes/courses/course-form.tsx", { id: "teacher/create-course" }),
    ...["students", "sessions", "quiz", "messages", "analytics", "content", "schedule", "settings"].map((path) =>
      route(path, "routes/shell/coming-soon.tsx", { id: `teacher/${path}` }),
    ),
  ]),
  route("barre-laterale", "routes/shell/sidebar.ts"),
  // Stored files (thumbnails, lesson videos and documents), each checked against who asks.
  route("fichiers/:id", "routes/files/file.ts"),
  route("sitemap.xml", "routes/seo/sitemap.tsx"),
  route("robots.txt", "routes/seo/robots.tsx"),
  // The users CSV (a resource route: no layout, no component).
  route("admin/users/export.csv", "routes/admin/users-export.tsx"),
  ...["teacher/courses", "admin/my-courses"].map((path) => route(`${path}/export.csv`, "routes/courses/course-list-export.tsx", { id: `${path}/export.csv` })),
] satisfies RouteConfig;
