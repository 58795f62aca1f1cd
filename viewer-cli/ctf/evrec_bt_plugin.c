/* SPDX-License-Identifier: Apache-2.0 */
/* The babeltrace2 plugin module `evrec` (babeltrace-plugin-evrec.so): one source component
 * class, `source.evrec.file`, implemented in evrec_bt_source.c. Load it with
 *   babeltrace2 --plugin-path=DIR -c source.evrec.file -p 'inputs=["demo.evr"]'
 * or let babeltrace2 find it for a file: `babeltrace2 --plugin-path=DIR demo.evr`. */
#include <babeltrace2/babeltrace.h>

#include "evrec_bt_source.h"

BT_PLUGIN_MODULE();

BT_PLUGIN(evrec);
BT_PLUGIN_DESCRIPTION("evrec event recordings (.evr) and CCore EventRecorder streams");
BT_PLUGIN_AUTHOR("The evrec authors");
BT_PLUGIN_LICENSE("Apache-2.0");
BT_PLUGIN_VERSION(EVREC_VERSION_MAJOR, EVREC_VERSION_MINOR, EVREC_VERSION_PATCH, NULL);

BT_PLUGIN_SOURCE_COMPONENT_CLASS(file, evrec_bt_iter_next);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_DESCRIPTION(file, evrec_bt_source_description);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_HELP(file, evrec_bt_source_help);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_INITIALIZE_METHOD(file, evrec_bt_init);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_FINALIZE_METHOD(file, evrec_bt_finalize);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_QUERY_METHOD(file, evrec_bt_query);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD(file, evrec_bt_iter_init);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_FINALIZE_METHOD(file, evrec_bt_iter_finalize);
BT_PLUGIN_SOURCE_COMPONENT_CLASS_MESSAGE_ITERATOR_CLASS_SEEK_BEGINNING_METHODS(file, evrec_bt_iter_seek_beginning,
                                                                               evrec_bt_iter_can_seek_beginning);
