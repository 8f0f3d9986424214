/*
 * dynlib_xml.c - libxml2, opened on first use (see nicfit/dynlib.h).
 *
 * Why: only `audit --dump` of hwloc or NCCL XML parses XML, but linked
 * normally libxml2 brings libicuuc, libicudata and libstdc++ into every
 * process, and relocating them was 3.2 million of the 3.4 million
 * instructions of `nicfit --version` (callgrind), more than the whole
 * rest of an audit. So the few libxml2 functions the dump reader calls
 * (src/lib/dump/dump_xml.c, written against libxml2's own headers) are
 * defined here under their own names, each opening libxml2.so.2 with
 * dlopen() when first called and forwarding to it. They are hidden: the
 * shared library exports nicfit_* only, and a program that links the
 * archive and libxml2 itself keeps libxml2's own. When libxml2 is missing
 * the parser context cannot be made, which the reader reports as it does
 * a failed allocation.
 */
#include <stddef.h>

#pragma GCC visibility push(hidden)
#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#pragma GCC visibility pop

#include "nicfit/dynlib.h"

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
	{ "xmlFree", (void **)&xml.free }
};

static const char *const xml_sonames[] = { "libxml2.so.2", "libxml2.so", NULL };

static struct nicfit_dynlib xml_lib = {
	"libxml2", xml_sonames, "libxml2", xml_syms,
	sizeof(xml_syms) / sizeof(xml_syms[0]), 0, ""
};

/* Is libxml2 loaded (opening it the first time)? */
static int ready(void)
{
	return nicfit_dynlib_load(&xml_lib, NULL) == 0;
}

xmlParserCtxtPtr xmlNewParserCtxt(void)
{
	return ready() ? xml.new_parser_ctxt() : NULL;
}

/*
 * The rest are reached only with what a parser context made, so libxml2
 * is loaded by then; each still checks, so none can call a NULL slot.
 */
xmlDocPtr xmlCtxtReadMemory(xmlParserCtxtPtr ctxt, const char *buffer, int size,
			    const char *URL, const char *encoding, int options)
{
	return ready() ? xml.ctxt_read_memory(ctxt, buffer, size, URL, encoding, options) : NULL;
}

xmlErrorPtr xmlCtxtGetLastError(void *ctx)
{
	return ready() ? xml.ctxt_get_last_error(ctx) : NULL;
}

xmlNodePtr xmlDocGetRootElement(const xmlDoc *doc)
{
	return ready() ? xml.doc_get_root_element(doc) : NULL;
}

void xmlFreeDoc(xmlDocPtr cur)
{
	if (ready())
		xml.free_doc(cur);
}

void xmlFreeParserCtxt(xmlParserCtxtPtr ctxt)
{
	if (ready())
		xml.free_parser_ctxt(ctxt);
}

long xmlGetLineNo(const xmlNode *node)
{
	return ready() ? xml.get_line_no(node) : -1;
}

xmlChar *xmlGetNoNsProp(const xmlNode *node, const xmlChar *name)
{
	return ready() ? xml.get_no_ns_prop(node, name) : NULL;
}

/* libxml2's deallocator (a variable there), for what xmlGetNoNsProp returns */
static void free_fwd(void *p)
{
	if (p && ready())
		(*xml.free)(p);
}

__attribute__((visibility("hidden"))) xmlFreeFunc xmlFree = free_fwd;
