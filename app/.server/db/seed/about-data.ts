import type { instituteHighlights, quotes, teamMembers } from "../schema";

/**
 * The about page's first content. The figures are the institute's own claims about its history
 * (students trained and certificates issued over 15 years, mostly before this platform existed);
 * the leaders are placeholders from the prototype that the institute replaces with its real
 * management team. Rows are matched by `key`: re-seeding never overwrites an edit.
 */

export const seedHighlights: (typeof instituteHighlights.$inferInsert)[] = [
  { key: "students-trained", value: 2500, suffix: "+", label: "Étudiants formés", position: 1 },
  { key: "certificates-issued", value: 1800, suffix: "+", label: "Certifications délivrées", position: 2 },
  { key: "international-partners", value: 25, suffix: "+", label: "Partenaires internationaux", position: 3 },
  { key: "years-of-experience", value: 15, suffix: "+", label: "Années d'expérience", position: 4 },
];

export const seedTeamMembers: (typeof teamMembers.$inferInsert)[] = [
  {
    key: "mamadou-keita",
    name: "Dr Mamadou Keïta",
    role: "Directeur général",
    expertise: "Stratégie et transformation numérique",
    experienceYears: 20,
    projectsCount: 150,
    description:
      "Ingénieur de formation et docteur en informatique, il conduit le développement de l'institut et ses partenariats avec les entreprises membres de la Chambre.",
    specialties: ["Transformation numérique", "Partenariats internationaux", "Gouvernance des projets"],
    achievement: "A conduit plus de 150 programmes de formation pour des entreprises maliennes et ouest-africaines.",
    position: 1,
  },
  {
    key: "aminata-diarra",
    name: "Aminata Diarra",
    role: "Directrice des études et de la pédagogie",
    expertise: "Ingénierie pédagogique et certification",
    experienceYears: 18,
    projectsCount: 100,
    description:
      "Elle conçoit les parcours de formation, veille à la qualité des contenus et organise les certifications délivrées par l'institut.",
    specialties: ["Ingénierie pédagogique", "Formation en ligne", "Évaluation et certification"],
    achievement: "A mis en place le dispositif de certification qui a délivré plus de 1\u00a0800 attestations.",
    position: 2,
  },
  {
    key: "ibrahim-coulibaly",
    name: "Ibrahim Coulibaly",
    role: "Directeur technique et de l'innovation",
    expertise: "Intelligence artificielle et cybersécurité",
    experienceYears: 15,
    projectsCount: 200,
    description:
      "Expert en sécurité des systèmes d'information et en science des données, il dirige les formations techniques et le laboratoire d'innovation.",
    specialties: ["Intelligence artificielle", "Cybersécurité", "Science des données"],
    achievement: "A accompagné plus de 200 projets techniques d'entreprises et d'administrations.",
    position: 3,
  },
];

export const seedQuotes: (typeof quotes.$inferInsert)[] = [
  {
    key: "director-general",
    text: "Former les talents d'aujourd'hui, c'est bâtir l'économie malienne de demain.",
    author: "Dr Mamadou Keïta",
    authorRole: "Directeur général",
    position: 1,
  },
  {
    key: "director-of-studies",
    text: "Chaque apprenant mérite une formation exigeante, concrète et reconnue par les entreprises.",
    author: "Aminata Diarra",
    authorRole: "Directrice des études et de la pédagogie",
    position: 2,
  },
  {
    key: "technical-director",
    text: "L'intelligence artificielle et la cybersécurité ne sont plus l'avenir : ce sont les compétences du présent.",
    author: "Ibrahim Coulibaly",
    authorRole: "Directeur technique et de l'innovation",
    position: 3,
  },
];
