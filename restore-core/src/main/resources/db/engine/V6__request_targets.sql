-- A request names its targets as a list (several compose, decision 0034): the stored single
-- "target" (null: the default) becomes "targets" (empty: the defaults).
UPDATE restore_operation
   SET request = JSON_REMOVE(
         JSON_SET(request, '$.targets',
           IF(JSON_TYPE(JSON_EXTRACT(request, '$.target')) = 'OBJECT',
              JSON_ARRAY(JSON_EXTRACT(request, '$.target')),
              JSON_ARRAY())),
         '$.target')
 WHERE JSON_CONTAINS_PATH(request, 'one', '$.target');
