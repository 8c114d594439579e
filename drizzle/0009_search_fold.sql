-- Every search of the product ignores accents and case, on PGlite and PostgreSQL alike:
-- campus_fold('Sécurité Énergie') = 'securite energie'. unaccent is a trusted extension (a
-- database owner may create it); the wrapper names its dictionary so that it can be immutable.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campus_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1))
$$;
