<?xml version="1.0" encoding="ASCII"?>
<!DOCTYPE xsl:stylesheet [
<!ENTITY % common.entities SYSTEM "../common/entities.ent">
%common.entities;
]>
<!-- Shaped like DocBook XSL's html/autoidx.xsl: its XPath comes from
     entities declared in ../common/entities.ent. -->
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0">
  <xsl:key name="letter" match="indexterm" use="translate(substring(&primary;, 1, 1),&lowercase;,&uppercase;)"/>
  <xsl:template match="indexterm" mode="index-div">
    <xsl:if test="&scope;">&sep;<xsl:value-of select="primary"/></xsl:if>
  </xsl:template>
</xsl:stylesheet>
