/*
 * dynlib_xml.c - libxml2, opened on first use (see nicfit/dynlib.h).
 *
 * Why: only `audit --dump` of hwloc or NCCL XML parses XML, but linked
 * normally libxml2 brings libicuuc, libicudata and libstdc++ into every
 * process, and relocating them was 3.2 million of the 3.4 million
 * instructions of `nicfit --version` (callgrind), more than the whole
 * rest of an audit. So the few libxml2 functions the dump reader calls
 * (src/lib/dump/dump_xml.c) are reached through nicfit__xml_* (xml_int.h),
 * each forwarding to libxml2.so.2, opened with dlopen() on first use.
 * The reader calls nicfit__xml_load() first, so a missing libxml2 is a
 * sentence naming the library and its package, not a failed allocation.
 */
#include <stddef.h>

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"
#include "core/xml_int.h"

static struct {
	xmlParserCtxtPtr (*new_parser_ctxt)(void);
	xmlDocPtr (*ctxt_read_memory)(xmlParserCtxtPtr, const char *, int, const char *,
				      const char *, int);
	xmlErrorPtr (*ctxt_get_last_error)(void *);
	xmlNodePtr (*doc_get_root_element)(const xmlDoc *);
	void (*free_doc)(xmlDocPtr);
	void (*free_parser_ctxt)(xmlParserCtxtPtr);
	long (*get_line_no)(const xmlNode *);
	xmlChar *(*get_no_ns_prop)(const xmlNode *, const xmlChar *);
	void (*stop_parser)(xmlParserCtxtPtr);
	xmlFreeFunc *free;
} xml;

static const struct nicfit_dynsym xml_syms[] = {
	{ "xmlNewParserCtxt", (void **)&xml.new_parser_ctxt },
	{ "xmlCtxtReadMemory", (void **)&xml.ctxt_read_memory },
	{ "xmlCtxtGetLastError", (void **)&xml.ctxt_get_last_error },
	{ "xmlDocGetRootElement", (void **)&xml.doc_get_root_element },
	{ "xmlFreeDoc", (void **)&xml.free_doc },
	{ "xmlFreeParserCtxt", (void **)&xml.free_parser_ctxt },
	{ "xmlGetLineNo", (void **)&xml.get_line_no },
	{ "xmlGetNoNsProp", (void **)&xml.get_no_ns_prop },
	{ "xmlStopParser", (void **)&xml.stop_parser },
	{ "xmlFree", (void **)&xml.free }
};

static const char *const xml_sonames[] = { NICFIT_SONAME_XML2, NULL };

static struct nicfit_dynlib xml_lib = {
	"libxml2", xml_sonames, NICFIT_PACKAGE_XML2, xml_syms,
	sizeof(xml_syms) / sizeof(xml_syms[0]), 0, ""
};

int nicfit__xml_load(struct nicfit_error *err)
{
	return nicfit_dynlib_load(&xml_lib, err);
}

/* Is libxml2 loaded (opening it the first time)? */
static int ready(void)
{
	return nicfit_dynlib_load(&xml_lib, NULL) == 0;
}

xmlParserCtxtPtr nicfit__xml_new_parser_ctxt(void)
{
	return ready() ? xml.new_parser_ctxt() : NULL;
}

/*
 * The rest are reached only with what a parser context made, so libxml2
 * is loaded by then; each still checks, so none can call a NULL slot.
 */
xmlDocPtr nicfit__xml_ctxt_read_memory(xmlParserCtxtPtr ctxt, const char *buffer, int size,
			    const char *URL, const char *encoding, int options)
{
	return ready() ? xml.ctxt_read_memory(ctxt, buffer, size, URL, encoding, options) : NULL;
}

xmlErrorPtr nicfit__xml_ctxt_get_last_error(void *ctx)
{
	return ready() ? xml.ctxt_get_last_error(ctx) : NULL;
}

xmlNodePtr nicfit__xml_doc_get_root_element(const xmlDoc *doc)
{
	return ready() ? xml.doc_get_root_element(doc) : NULL;
}

void nicfit__xml_free_doc(xmlDocPtr cur)
{
	if (ready())
		xml.free_doc(cur);
}

void nicfit__xml_free_parser_ctxt(xmlParserCtxtPtr ctxt)
{
	if (ready())
		xml.free_parser_ctxt(ctxt);
}

long nicfit__xml_get_line_no(const xmlNode *node)
{
	return ready() ? xml.get_line_no(node) : -1;
}

xmlChar *nicfit__xml_get_no_ns_prop(const xmlNode *node, const xmlChar *name)
{
	return ready() ? xml.get_no_ns_prop(node, name) : NULL;
}

void nicfit__xml_stop_parser(xmlParserCtxtPtr ctxt)
{
	if (ready())
		xml.stop_parser(ctxt);
}

void nicfit__xml_free(void *p)
{
	if (p && ready())
		(*xml.free)(p);
}
