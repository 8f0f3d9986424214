/*
 * xml_int.h - the libxml2 functions the dump reader calls, reached through
 * dynlib_xml.c so that libxml2 is opened only when a dump holds XML.
 * Each takes and returns what libxml2's function of the same meaning does.
 */
#ifndef NICFIT_XML_INT_H
#define NICFIT_XML_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "xml_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "nicfit/error.h"

/* Open libxml2 (once): 0, or NICFIT_E_IO naming the library and its package. */
int nicfit__xml_load(struct nicfit_error *err);

xmlParserCtxtPtr nicfit__xml_new_parser_ctxt(void);
xmlDocPtr nicfit__xml_ctxt_read_memory(xmlParserCtxtPtr ctxt, const char *buffer, int size,
				       const char *url, const char *encoding, int options);
xmlErrorPtr nicfit__xml_ctxt_get_last_error(void *ctx);
xmlNodePtr nicfit__xml_doc_get_root_element(const xmlDoc *doc);
void nicfit__xml_free_doc(xmlDocPtr cur);
void nicfit__xml_free_parser_ctxt(xmlParserCtxtPtr ctxt);
long nicfit__xml_get_line_no(const xmlNode *node);
xmlChar *nicfit__xml_get_no_ns_prop(const xmlNode *node, const xmlChar *name);
/* xmlStopParser(): the parse ends where it is, from inside a SAX callback */
void nicfit__xml_stop_parser(xmlParserCtxtPtr ctxt);
/* libxml2's own deallocator, for what nicfit__xml_get_no_ns_prop returns */
void nicfit__xml_free(void *p);

#endif
