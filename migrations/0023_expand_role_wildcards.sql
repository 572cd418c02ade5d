-- Default role bundles no longer grant by wildcard: each stored bundle's 'files.*', 'schedule.*',
-- 'chat.*', 'notes.*' and 'docs.*' becomes the family's scopes written out (the list below: the
-- wildcard, the scope, and 1 for an administrators' scope). Administrators' scopes (files.manage_all,
-- files.signatures.manage, notes.manage_all: everyone's private files, every signature request,
-- every note) go only to the admin bundle. Every other scope keeps its place, and the bundle's
-- version moves on so an open settings form is stale.
UPDATE role_bundles
SET scopes = (
  SELECT json_group_array(value) FROM (
    SELECT value FROM (
      SELECT value, 0 AS part, key AS pos FROM json_each(role_bundles.scopes)
      WHERE value NOT IN ('files.*', 'schedule.*', 'chat.*', 'notes.*', 'docs.*')
      UNION ALL
      SELECT json_extract(m.value, '$[1]') AS value, 1 AS part, m.key AS pos FROM json_each('[
  ["notes.*", "notes.view", 0],
  ["notes.*", "notes.create", 0],
  ["notes.*", "notes.edit", 0],
  ["notes.*", "notes.delete", 0],
  ["notes.*", "notes.share", 0],
  ["notes.*", "notes.folders.create", 0],
  ["notes.*", "notes.folders.manage", 0],
  ["notes.*", "notes.manage_all", 1],
  ["docs.*", "docs.view", 0],
  ["docs.*", "docs.edit", 0],
  ["docs.*", "docs.manage", 0],
  ["files.*", "files.view", 0],
  ["files.*", "files.upload", 0],
  ["files.*", "files.delete", 0],
  ["files.*", "files.share", 0],
  ["files.*", "files.folders.create", 0],
  ["files.*", "files.folders.manage", 0],
  ["files.*", "files.signatures.view", 0],
  ["files.*", "files.signatures.create", 0],
  ["files.*", "files.signatures.sign", 0],
  ["files.*", "files.manage_all", 1],
  ["files.*", "files.signatures.manage", 1],
  ["schedule.*", "schedule.view", 0],
  ["schedule.*", "schedule.create", 0],
  ["schedule.*", "schedule.edit", 0],
  ["schedule.*", "schedule.delete", 0],
  ["chat.*", "chat.view", 0],
  ["chat.*", "chat.send", 0]
]') AS m
      WHERE json_extract(m.value, '$[0]') IN (SELECT value FROM json_each(role_bundles.scopes))
        AND (json_extract(m.value, '$[2]') = 0 OR role_bundles.name = 'admin')
    ) GROUP BY value ORDER BY MIN(part * 1000 + pos)
  )
),
updated_at = updated_at + 1
WHERE EXISTS (SELECT 1 FROM json_each(role_bundles.scopes) WHERE value IN ('files.*', 'schedule.*', 'chat.*', 'notes.*', 'docs.*'));
